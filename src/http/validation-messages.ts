/**
 * Turns the JSON-schema validator's findings into the field messages Laravel clients expect ("The per_page
 * field must be one of 10, 25, 50, 100."), keyed by parameter name.
 */

export interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

export function validationMessages(errors: readonly SchemaError[]): Record<string, string[]> {
  const messages: Record<string, string[]> = {};
  // A value of the wrong type fails every other rule too; saying so once is enough.
  const wrongType = new Set(
    errors.filter((error) => error.keyword === "type").map((error) => error.instancePath),
  );
  for (const error of errors) {
    if (error.keyword !== "type" && wrongType.has(error.instancePath)) continue;
    const field =
      error.keyword === "required"
        ? String(error.params.missingProperty)
        : error.instancePath.replace(/^\//, "").split("/")[0] || "body";
    const message = messageFor(field, error);
    if (!message) continue;
    messages[field] ??= [];
    const list = messages[field];
    if (!list.includes(message)) list.push(message);
  }
  return messages;
}

function messageFor(field: string, error: SchemaError): string | null {
  const { params } = error;
  switch (error.keyword) {
    case "required":
      return `The ${field} field is required.`;
    case "enum":
      return `The ${field} field must be one of ${(params.allowedValues as unknown[]).join(", ")}.`;
    case "type":
      if (field === "body") return "The request body must be an object of fields.";
      return `The ${field} field must be ${params.type === "integer" ? "an integer" : params.type === "string" ? "a string" : `of type ${params.type}`}.`;
    case "maxLength":
      return `The ${field} field must not be greater than ${params.limit} characters.`;
    case "minLength":
      return `The ${field} field must be at least ${params.limit} characters.`;
    case "minimum":
      return `The ${field} field must be at least ${params.limit}.`;
    case "maximum":
      return `The ${field} field must not be greater than ${params.limit}.`;
    case "pattern":
    case "format":
      return `The ${field} field format is invalid.`;
    default:
      return `The ${field} field is invalid.`;
  }
}
