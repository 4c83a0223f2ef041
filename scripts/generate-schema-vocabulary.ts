/**
 * Generates src/analysis/structured-data/schema-vocabulary.json, the compact schema.org vocabulary the
 * structured-data check reads, from an official schema.org release file (schemaorg-current-https.jsonld, found
 * in the schema.org repository under data/releases/<version>/). Run it when moving to a new release:
 *
 *   npx tsx scripts/generate-schema-vocabulary.ts path/to/schemaorg-current-https.jsonld 30.0
 *
 * The output keeps, per type, its direct parents; per property, the types it applies to (domainIncludes) and
 * the kinds of value it expects (rangeIncludes); and the enumeration members (InStock, …) with their type.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

interface Term {
  "@id": string;
  "@type": string | string[];
  "rdfs:subClassOf"?: Reference | Reference[];
  "schema:domainIncludes"?: Reference | Reference[];
  "schema:rangeIncludes"?: Reference | Reference[];
}
type Reference = { "@id": string };

const [sourcePath, version] = process.argv.slice(2);
if (!sourcePath || !version) {
  console.error(
    "usage: tsx scripts/generate-schema-vocabulary.ts <schemaorg-current-https.jsonld> <version>",
  );
  process.exit(2);
}

const graph = (JSON.parse(readFileSync(sourcePath, "utf8")) as { "@graph": Term[] })["@graph"];
const name = (id: string) => id.replace(/^schema:/, "");
const names = (refs: Reference | Reference[] | undefined) =>
  (Array.isArray(refs) ? refs : refs ? [refs] : [])
    .map((ref) => ref["@id"])
    .filter((id) => id.startsWith("schema:"))
    .map(name)
    .sort();
const kinds = (term: Term) => (Array.isArray(term["@type"]) ? term["@type"] : [term["@type"]]);

const types: Record<string, string[]> = {};
const properties: Record<string, [string[], string[]]> = {};
const members: Record<string, string> = {};
for (const term of graph) {
  if (!term["@id"].startsWith("schema:")) continue;
  const termKinds = kinds(term);
  if (termKinds.includes("rdfs:Class")) types[name(term["@id"])] = names(term["rdfs:subClassOf"]);
  else if (termKinds.includes("rdf:Property"))
    properties[name(term["@id"])] = [
      names(term["schema:domainIncludes"]),
      names(term["schema:rangeIncludes"]),
    ];
  else {
    const memberOf = termKinds.find((kind) => kind.startsWith("schema:"));
    if (memberOf) members[name(term["@id"])] = name(memberOf);
  }
}
// Data types (Text, URL, Date, …) are typed schema:DataType as well as rdfs:Class in the release file.
for (const term of graph)
  if (kinds(term).includes("schema:DataType") && !(name(term["@id"]) in types)) types[name(term["@id"])] = [];

const sorted = <T>(record: Record<string, T>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
const output = {
  source: `https://schema.org, release ${version} (schemaorg-current-https.jsonld)`,
  license: "CC BY-SA 3.0 (https://schema.org/docs/terms.html)",
  version,
  types: sorted(types),
  properties: sorted(properties),
  members: sorted(members),
};
const target = fileURLToPath(
  new URL("../src/analysis/structured-data/schema-vocabulary.json", import.meta.url),
);
writeFileSync(target, `${JSON.stringify(output)}\n`);
console.log(
  `${Object.keys(types).length} types, ${Object.keys(properties).length} properties, ` +
    `${Object.keys(members).length} enumeration members → ${target}`,
);
