/** social-links: the page links to the site's profiles on social networks. */
import { type CheckDefinition, outcome } from "./check.js";

const networks: Record<string, string> = {
  "facebook.com": "Facebook",
  "instagram.com": "Instagram",
  "x.com": "X",
  "twitter.com": "X",
  "linkedin.com": "LinkedIn",
  "youtube.com": "YouTube",
  "tiktok.com": "TikTok",
  "pinterest.com": "Pinterest",
  "github.com": "GitHub",
  "threads.net": "Threads",
  "bsky.app": "Bluesky",
  "mastodon.social": "Mastodon",
  "reddit.com": "Reddit",
  "vk.com": "VK",
  "t.me": "Telegram",
};
const profileHost = new RegExp(
  `^https?://(?:www\\.|m\\.|mobile\\.)?(${Object.keys(networks)
    .map((host) => host.replace(/\./g, "\\."))
    .join("|")})/`,
);
/** Share buttons link to the network, not to the site's profile. */
const shareLink = /\/(sharer|share|intent|sharing|submit|shareArticle)\b/i;

export const socialLinks: CheckDefinition = {
  id: "social-links",
  category: "miscellaneous",
  importance: "low",
  title: "Social profiles",
  description:
    "The page links to the site's profiles on social networks, which helps visitors and search engines connect them.",
  howToFix:
    "Link to your profiles (for example in the footer) and list them in Organization structured data (sameAs).",
  run(page) {
    const found = new Map<string, string>();
    for (const anchor of page.document.anchors) {
      if (anchor.href === null || !/^https?:/.test(anchor.href)) continue;
      // One pattern tells the few profile links from the many others without parsing every URL.
      const host = profileHost.exec(anchor.href)?.[1];
      const network = host ? networks[host] : undefined;
      if (!network) continue;
      const path = new URL(anchor.href).pathname;
      if (path.length > 1 && !shareLink.test(path)) found.set(network, anchor.href);
    }
    if (found.size === 0) return outcome.info("The page links to no social network profile.", []);
    const items = [...found].map(([network, href]) => ({ network, href }));
    return outcome.pass(
      `The page links to profiles on ${[...found.keys()].join(", ")}.`,
      [...found.keys()],
      items,
    );
  },
};
