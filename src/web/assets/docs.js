// Renders the OpenAPI document served by this instance as a readable list of operations (no third-party code).
(async () => {
  const target = document.getElementById("operations");
  const escapeText = (text) => String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  try {
    const doc = await (await fetch("/api/v1/openapi.json")).json();
    const parts = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const params = (operation.parameters ?? []).map((p) => {
          const schema = p.schema ?? {};
          const allowed = schema.enum ? ` (${schema.enum.join(", ")})` : "";
          return `<li><code>${escapeText(p.name)}</code> in ${escapeText(p.in)}${allowed}${p.description ? ` — ${escapeText(p.description)}` : ""}</li>`;
        });
        const body = operation.requestBody?.content?.["application/json"]?.schema?.properties ?? {};
        const fields = Object.entries(body).map(
          ([name, schema]) =>
            `<li><code>${escapeText(name)}</code>${schema.description ? ` — ${escapeText(schema.description)}` : ""}</li>`,
        );
        const statuses = Object.keys(operation.responses ?? {}).join(", ");
        parts.push(
          `<section class="check"><h2><code>${escapeText(method.toUpperCase())} ${escapeText(path)}</code></h2><p>${escapeText(operation.summary)}</p>${params.length ? `<h3>Parameters</h3><ul>${params.join("")}</ul>` : ""}${fields.length ? `<h3>Body fields</h3><ul>${fields.join("")}</ul>` : ""}<p class="muted">Responses: ${escapeText(statuses)}</p></section>`,
        );
      }
    }
    target.innerHTML = parts.join("");
  } catch {
    target.textContent = "The OpenAPI document could not be loaded.";
  }
})();
