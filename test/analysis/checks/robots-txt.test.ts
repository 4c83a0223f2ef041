import { describe, expect, it } from "vitest";
import { robotsTxt } from "../../../src/analysis/checks/robots-txt.js";
import { doc, pageFrom, probeFailed, robotsProbe, run } from "../../helpers/page.js";

const withRobots = (text: string, url = "https://example.com/guide/page") =>
  run(robotsTxt, pageFrom(doc(""), { robots: text, url }));

describe("robots-txt", () => {
  it("passes when every major crawler may fetch the page, and when robots.txt is missing", () => {
    expect(withRobots("User-agent: *\nDisallow: /admin/").status).toBe("pass");
    expect(run(robotsTxt, pageFrom(doc(""))).status).toBe("pass");
  });
  it("warns when some crawlers are disallowed", () => {
    const result = withRobots("User-agent: Bingbot\nDisallow: /\n\nUser-agent: *\nAllow: /");
    expect(result.status).toBe("warn");
    expect(result.items).toEqual([{ user_agent: "Bingbot", allowed: false }]);
  });
  it("fails when all are disallowed", () => {
    expect(withRobots("User-agent: *\nDisallow: /guide").status).toBe("fail");
  });
  it("applies the longest match, Allow winning ties", () => {
    expect(withRobots("User-agent: *\nDisallow: /guide\nAllow: /guide/page").status).toBe("pass");
    expect(withRobots("User-agent: *\nAllow: /guide\nDisallow: /guide/page").status).toBe("fail");
  });
  it("fails on a robots.txt server error", () => {
    const page = pageFrom(doc(""), { probes: { robotsTxt: robotsProbe(503) } });
    expect(run(robotsTxt, page).status).toBe("fail");
  });
  it("cannot check when robots.txt was unreachable or refused pagegrade", () => {
    expect(run(robotsTxt, pageFrom(doc(""), { probes: { robotsTxt: probeFailed() } })).status).toBe("error");
    const forbidden = pageFrom(doc(""), { probes: { robotsTxt: robotsProbe(403) } });
    expect(run(robotsTxt, forbidden).status).toBe("error");
  });
});
