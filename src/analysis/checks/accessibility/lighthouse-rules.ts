/**
 * The rules of Lighthouse 12.8.2's accessibility category that carry a weight (its core/config/default-config.js),
 * with that weight, and axe-core's own title (`help`) and description of each rule (from axe-core's metadata,
 * copied here so that listing the catalogue does not load axe-core; a test keeps them equal to the installed
 * axe-core's). A check's importance comes from the weight (axe-checks.ts): 10 → high, 7 → medium, 3 and 1 → low. Five audits
 * Lighthouse 12.8.2 reports as informative (bypass, duplicate-id-aria, form-field-multiple-labels,
 * th-has-data-cells, video-caption: rules whose findings axe mostly leaves for review) are never pass: `info` or
 * `na`.
 */

export interface LighthouseAxeRule {
  /** axe-core's rule id (and Lighthouse's audit id). */
  rule: string;
  /** Lighthouse's weight of the audit in its accessibility category. */
  weight: 10 | 7 | 3 | 1;
  help: string;
  description: string;
  /**
   * Lighthouse shows the audit as informative (it never passes): elements axe flags, as violations or as
   * needing review, make it `info`; nothing flagged makes it `na`.
   */
  informative?: true;
}

export const lighthouseAxeRules: readonly LighthouseAxeRule[] = [
  {
    rule: "accesskeys",
    weight: 7,
    help: "accesskey attribute value should be unique",
    description: "Ensure every accesskey attribute value is unique",
  },
  {
    rule: "aria-allowed-attr",
    weight: 10,
    help: "Elements must only use supported ARIA attributes",
    description: "Ensure an element's role supports its ARIA attributes",
  },
  {
    rule: "aria-allowed-role",
    weight: 1,
    help: "ARIA role should be appropriate for the element",
    description: "Ensure role attribute has an appropriate value for the element",
  },
  {
    rule: "aria-command-name",
    weight: 7,
    help: "ARIA commands must have an accessible name",
    description: "Ensure every ARIA button, link and menuitem has an accessible name",
  },
  {
    rule: "aria-conditional-attr",
    weight: 7,
    help: "ARIA attributes must be used as specified for the element's role",
    description: "Ensure ARIA attributes are used as described in the specification of the element's role",
  },
  {
    rule: "aria-deprecated-role",
    weight: 1,
    help: "Deprecated ARIA roles must not be used",
    description: "Ensure elements do not use deprecated roles",
  },
  {
    rule: "aria-dialog-name",
    weight: 7,
    help: "ARIA dialog and alertdialog nodes should have an accessible name",
    description: "Ensure every ARIA dialog and alertdialog node has an accessible name",
  },
  {
    rule: "aria-hidden-body",
    weight: 10,
    help: 'aria-hidden="true" must not be present on the document body',
    description: 'Ensure aria-hidden="true" is not present on the document body.',
  },
  {
    rule: "aria-hidden-focus",
    weight: 7,
    help: "ARIA hidden element must not be focusable or contain focusable elements",
    description: "Ensure aria-hidden elements are not focusable nor contain focusable elements",
  },
  {
    rule: "aria-input-field-name",
    weight: 7,
    help: "ARIA input fields must have an accessible name",
    description: "Ensure every ARIA input field has an accessible name",
  },
  {
    rule: "aria-meter-name",
    weight: 7,
    help: "ARIA meter nodes must have an accessible name",
    description: "Ensure every ARIA meter node has an accessible name",
  },
  {
    rule: "aria-progressbar-name",
    weight: 7,
    help: "ARIA progressbar nodes must have an accessible name",
    description: "Ensure every ARIA progressbar node has an accessible name",
  },
  {
    rule: "aria-prohibited-attr",
    weight: 7,
    help: "Elements must only use permitted ARIA attributes",
    description: "Ensure ARIA attributes are not prohibited for an element's role",
  },
  {
    rule: "aria-required-attr",
    weight: 10,
    help: "Required ARIA attributes must be provided",
    description: "Ensure elements with ARIA roles have all required ARIA attributes",
  },
  {
    rule: "aria-required-children",
    weight: 10,
    help: "Certain ARIA roles must contain particular children",
    description: "Ensure elements with an ARIA role that require child roles contain them",
  },
  {
    rule: "aria-required-parent",
    weight: 10,
    help: "Certain ARIA roles must be contained by particular parents",
    description: "Ensure elements with an ARIA role that require parent roles are contained by them",
  },
  {
    rule: "aria-roles",
    weight: 7,
    help: "ARIA roles used must conform to valid values",
    description: "Ensure all elements with a role attribute use a valid value",
  },
  {
    rule: "aria-text",
    weight: 7,
    help: '"role=text" should have no focusable descendants',
    description: 'Ensure role="text" is used on elements with no focusable descendants',
  },
  {
    rule: "aria-toggle-field-name",
    weight: 7,
    help: "ARIA toggle fields must have an accessible name",
    description: "Ensure every ARIA toggle field has an accessible name",
  },
  {
    rule: "aria-tooltip-name",
    weight: 7,
    help: "ARIA tooltip nodes must have an accessible name",
    description: "Ensure every ARIA tooltip node has an accessible name",
  },
  {
    rule: "aria-treeitem-name",
    weight: 7,
    help: "ARIA treeitem nodes should have an accessible name",
    description: "Ensure every ARIA treeitem node has an accessible name",
  },
  {
    rule: "aria-valid-attr-value",
    weight: 10,
    help: "ARIA attributes must conform to valid values",
    description: "Ensure all ARIA attributes have valid values",
  },
  {
    rule: "aria-valid-attr",
    weight: 10,
    help: "ARIA attributes must conform to valid names",
    description: "Ensure attributes that begin with aria- are valid ARIA attributes",
  },
  {
    rule: "button-name",
    weight: 10,
    help: "Buttons must have discernible text",
    description: "Ensure buttons have discernible text",
  },
  {
    rule: "bypass",
    weight: 7,
    help: "Page must have means to bypass repeated blocks",
    description:
      "Ensure each page has at least one mechanism for a user to bypass navigation and jump straight to the content",
    informative: true,
  },
  {
    rule: "color-contrast",
    weight: 7,
    help: "Elements must meet minimum color contrast ratio thresholds",
    description:
      "Ensure the contrast between foreground and background colors meets WCAG 2 AA minimum contrast ratio thresholds",
  },
  {
    rule: "definition-list",
    weight: 7,
    help: "<dl> elements must only directly contain properly-ordered <dt> and <dd> groups, <script>, <template> or <div> elements",
    description: "Ensure <dl> elements are structured correctly",
  },
  {
    rule: "dlitem",
    weight: 7,
    help: "<dt> and <dd> elements must be contained by a <dl>",
    description: "Ensure <dt> and <dd> elements are contained by a <dl>",
  },
  {
    rule: "document-title",
    weight: 7,
    help: "Documents must have <title> element to aid in navigation",
    description: "Ensure each HTML document contains a non-empty <title> element",
  },
  {
    rule: "duplicate-id-aria",
    weight: 10,
    help: "IDs used in ARIA and labels must be unique",
    description: "Ensure every id attribute value used in ARIA and in labels is unique",
    informative: true,
  },
  {
    rule: "form-field-multiple-labels",
    weight: 3,
    help: "Form field must not have multiple label elements",
    description: "Ensure form field does not have multiple label elements",
    informative: true,
  },
  {
    rule: "frame-title",
    weight: 7,
    help: "Frames must have an accessible name",
    description: "Ensure <iframe> and <frame> elements have an accessible name",
  },
  {
    rule: "heading-order",
    weight: 3,
    help: "Heading levels should only increase by one",
    description: "Ensure the order of headings is semantically correct",
  },
  {
    rule: "html-has-lang",
    weight: 7,
    help: "<html> element must have a lang attribute",
    description: "Ensure every HTML document has a lang attribute",
  },
  {
    rule: "html-lang-valid",
    weight: 7,
    help: "<html> element must have a valid value for the lang attribute",
    description: "Ensure the lang attribute of the <html> element has a valid value",
  },
  {
    rule: "html-xml-lang-mismatch",
    weight: 3,
    help: "HTML elements with lang and xml:lang must have the same base language",
    description:
      "Ensure that HTML elements with both valid lang and xml:lang attributes agree on the base language of the page",
  },
  {
    rule: "image-alt",
    weight: 10,
    help: "Images must have alternative text",
    description: "Ensure <img> elements have alternative text or a role of none or presentation",
  },
  {
    rule: "image-redundant-alt",
    weight: 1,
    help: "Alternative text of images should not be repeated as text",
    description: "Ensure image alternative is not repeated as text",
  },
  {
    rule: "input-button-name",
    weight: 10,
    help: "Input buttons must have discernible text",
    description: "Ensure input buttons have discernible text",
  },
  {
    rule: "input-image-alt",
    weight: 10,
    help: "Image buttons must have alternative text",
    description: 'Ensure <input type="image"> elements have alternative text',
  },
  {
    rule: "label",
    weight: 7,
    help: "Form elements must have labels",
    description: "Ensure every form element has a label",
  },
  {
    rule: "link-in-text-block",
    weight: 7,
    help: "Links must be distinguishable without relying on color",
    description: "Ensure links are distinguished from surrounding text in a way that does not rely on color",
  },
  {
    rule: "link-name",
    weight: 7,
    help: "Links must have discernible text",
    description: "Ensure links have discernible text",
  },
  {
    rule: "list",
    weight: 7,
    help: "<ul> and <ol> must only directly contain <li>, <script> or <template> elements",
    description: "Ensure that lists are structured correctly",
  },
  {
    rule: "listitem",
    weight: 7,
    help: "<li> elements must be contained in a <ul> or <ol>",
    description: "Ensure <li> elements are used semantically",
  },
  {
    rule: "meta-refresh",
    weight: 10,
    help: "Delayed refresh under 20 hours must not be used",
    description: 'Ensure <meta http-equiv="refresh"> is not used for delayed refresh',
  },
  {
    rule: "meta-viewport",
    weight: 10,
    help: "Zooming and scaling must not be disabled",
    description: 'Ensure <meta name="viewport"> does not disable text scaling and zooming',
  },
  {
    rule: "object-alt",
    weight: 7,
    help: "<object> elements must have alternative text",
    description: "Ensure <object> elements have alternative text",
  },
  {
    rule: "select-name",
    weight: 7,
    help: "Select element must have an accessible name",
    description: "Ensure select element has an accessible name",
  },
  {
    rule: "skip-link",
    weight: 3,
    help: "The skip-link target should exist and be focusable",
    description: "Ensure all skip links have a focusable target",
  },
  {
    rule: "tabindex",
    weight: 7,
    help: "Elements should not have tabindex greater than zero",
    description: "Ensure tabindex attribute values are not greater than 0",
  },
  {
    rule: "table-duplicate-name",
    weight: 1,
    help: "Tables should not have the same summary and caption",
    description: "Ensure the <caption> element does not contain the same text as the summary attribute",
  },
  {
    rule: "target-size",
    weight: 7,
    help: "All touch targets must be 24px large, or leave sufficient space",
    description: "Ensure touch targets have sufficient size and space",
  },
  {
    rule: "td-headers-attr",
    weight: 7,
    help: "Table cell headers attributes must refer to other <th> elements in the same table",
    description:
      "Ensure that each cell in a table that uses the headers attribute refers only to other <th> elements in that table",
  },
  {
    rule: "th-has-data-cells",
    weight: 7,
    help: "Table headers in a data table must refer to data cells",
    description:
      "Ensure that <th> elements and elements with role=columnheader/rowheader have data cells they describe",
    informative: true,
  },
  {
    rule: "valid-lang",
    weight: 7,
    help: "lang attribute must have a valid value",
    description: "Ensure lang attributes have valid values",
  },
  {
    rule: "video-caption",
    weight: 10,
    help: "<video> elements must have captions",
    description: "Ensure <video> elements have captions",
    informative: true,
  },
];
