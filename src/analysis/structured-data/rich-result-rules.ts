/**
 * Google's required and recommended properties for the rich results it offers, one rule per kind of item,
 * each with the Google Search Central page it comes from. A requirement is a property name, alternatives
 * separated by "|" (one of them must be there), a dotted path into a nested item ("author.name"), and an
 * optional value kind after ":" that the value must have ("price:number"). `nested` names the rules that apply
 * to the items a property holds (a Product's offers are judged as Offers). `topLevel: false` rules apply only
 * through a parent's `nested`. When several top-level rules match an item, the most specific type's wins
 * (a LocalBusiness is judged as one, not also as an Organization).
 */
export type ValueKind = "number" | "integer" | "date" | "url" | "currency" | "duration" | "text";

export interface RichResultRule {
  id: string;
  /** The item types the rule applies to; subtypes too (a Restaurant is a LocalBusiness). */
  types: string[];
  /** The Google Search Central page that lists these properties. */
  source: string;
  required: string[];
  recommended: string[];
  nested?: Record<string, string[]>;
  topLevel?: false;
  /**
   * Properties not asked of the last item of its parent's list (the one of highest `position`, else the last
   * listed): Google wants a breadcrumb's `item` on every element but the last, the current page.
   */
  exceptOnLast?: string[];
}

const docs = "https://developers.google.com/search/docs/appearance/structured-data";

export const richResultRules: readonly RichResultRule[] = [
  {
    id: "article",
    types: ["Article", "NewsArticle", "BlogPosting"],
    source: `${docs}/article`,
    required: [],
    recommended: ["author", "datePublished:date", "dateModified:date", "headline", "image"],
  },
  {
    id: "product",
    types: ["Product", "ProductGroup"],
    source: `${docs}/product-snippet`,
    required: ["name", "offers|review|aggregateRating"],
    recommended: ["image", "description"],
    nested: {
      offers: ["offer", "aggregate-offer"],
      aggregateRating: ["aggregate-rating"],
      review: ["review-nested"],
    },
  },
  {
    id: "offer",
    types: ["Offer"],
    source: `${docs}/product-snippet`,
    required: ["price:number|priceSpecification.price:number"],
    recommended: ["priceCurrency:currency", "availability"],
    topLevel: false,
  },
  {
    id: "aggregate-offer",
    types: ["AggregateOffer"],
    source: `${docs}/product-snippet`,
    required: ["lowPrice:number", "priceCurrency:currency"],
    recommended: ["highPrice:number", "offerCount:integer"],
    topLevel: false,
  },
  {
    id: "aggregate-rating",
    types: ["AggregateRating"],
    source: `${docs}/review-snippet`,
    required: ["ratingValue:number", "ratingCount:integer|reviewCount:integer"],
    recommended: ["bestRating:number", "worstRating:number"],
    topLevel: false,
  },
  {
    id: "review",
    types: ["Review"],
    source: `${docs}/review-snippet`,
    required: ["author", "itemReviewed", "reviewRating.ratingValue:number"],
    recommended: ["datePublished:date"],
  },
  {
    id: "review-nested",
    types: ["Review"],
    source: `${docs}/review-snippet`,
    required: ["author", "reviewRating.ratingValue:number"],
    recommended: ["datePublished:date"],
    topLevel: false,
  },
  {
    id: "breadcrumb",
    types: ["BreadcrumbList"],
    source: `${docs}/breadcrumb`,
    required: ["itemListElement"],
    recommended: [],
    nested: { itemListElement: ["breadcrumb-item"] },
  },
  {
    id: "breadcrumb-item",
    types: ["ListItem"],
    source: `${docs}/breadcrumb`,
    required: ["position:integer", "name|item.name"],
    recommended: ["item"],
    exceptOnLast: ["item"],
    topLevel: false,
  },
  {
    id: "faq",
    types: ["FAQPage"],
    source: `${docs}/faqpage`,
    required: ["mainEntity"],
    recommended: [],
    nested: { mainEntity: ["faq-question"] },
  },
  {
    id: "faq-question",
    types: ["Question"],
    source: `${docs}/faqpage`,
    required: ["name", "acceptedAnswer.text"],
    recommended: [],
    topLevel: false,
  },
  {
    id: "qa",
    types: ["QAPage"],
    source: `${docs}/qapage`,
    required: ["mainEntity"],
    recommended: [],
    nested: { mainEntity: ["qa-question"] },
  },
  {
    id: "qa-question",
    types: ["Question"],
    source: `${docs}/qapage`,
    required: ["name", "answerCount:integer", "acceptedAnswer|suggestedAnswer"],
    recommended: ["text", "author", "datePublished:date", "upvoteCount:integer"],
    topLevel: false,
  },
  {
    id: "recipe",
    types: ["Recipe"],
    source: `${docs}/recipe`,
    required: ["name", "image"],
    recommended: [
      "aggregateRating",
      "author",
      "cookTime:duration",
      "datePublished:date",
      "description",
      "keywords",
      "nutrition.calories",
      "prepTime:duration",
      "recipeCategory",
      "recipeCuisine",
      "recipeIngredient",
      "recipeInstructions",
      "recipeYield",
      "totalTime:duration",
      "video",
    ],
    nested: { aggregateRating: ["aggregate-rating"] },
  },
  {
    id: "event",
    types: ["Event"],
    source: `${docs}/event`,
    required: ["name", "startDate:date", "location"],
    recommended: [
      "description",
      "endDate:date",
      "eventAttendanceMode",
      "eventStatus",
      "image",
      "offers",
      "organizer",
      "performer",
    ],
  },
  {
    id: "job-posting",
    types: ["JobPosting"],
    source: `${docs}/job-posting`,
    required: [
      "datePosted:date",
      "description",
      "hiringOrganization",
      "jobLocation|applicantLocationRequirements",
      "title",
    ],
    recommended: ["baseSalary", "employmentType", "identifier", "validThrough:date"],
  },
  {
    id: "local-business",
    types: ["LocalBusiness"],
    source: `${docs}/local-business`,
    required: ["name", "address"],
    recommended: [
      "aggregateRating",
      "geo",
      "openingHoursSpecification",
      "priceRange",
      "review",
      "telephone",
      "url:url",
    ],
  },
  {
    id: "organization",
    types: ["Organization"],
    source: `${docs}/organization`,
    required: [],
    recommended: ["name", "url:url", "logo", "sameAs"],
  },
  {
    id: "video",
    types: ["VideoObject"],
    source: `${docs}/video`,
    required: ["name", "thumbnailUrl", "uploadDate:date"],
    recommended: ["contentUrl:url|embedUrl:url", "description", "duration:duration"],
  },
  {
    id: "software-app",
    types: ["SoftwareApplication"],
    source: `${docs}/software-app`,
    required: ["name", "offers.price:number", "aggregateRating|review"],
    recommended: ["applicationCategory", "operatingSystem"],
    nested: { aggregateRating: ["aggregate-rating"] },
  },
  {
    id: "course",
    types: ["Course"],
    source: `${docs}/course`,
    required: ["name", "description"],
    recommended: ["provider"],
  },
  {
    id: "dataset",
    types: ["Dataset"],
    source: `${docs}/dataset`,
    required: ["name", "description"],
    recommended: ["creator", "license", "url:url", "keywords", "identifier", "sameAs"],
  },
  {
    id: "how-to",
    types: ["HowTo"],
    source: `${docs}/how-to`,
    required: ["name", "step"],
    recommended: ["image", "totalTime:duration", "supply", "tool"],
  },
];
