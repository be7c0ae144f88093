/** The small real-definition catalog the search tests run on. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { catalogTools, parseCatalog } from "../../src/search/catalog.ts";
import type { AnyTool } from "../../src/tool/types.ts";

export const SMALL_CATALOG = join(import.meta.dir, "../../fixtures/search/catalog-small.json");

export function smallCatalogTools(): AnyTool[] {
  return catalogTools(parseCatalog(readFileSync(SMALL_CATALOG, "utf8")));
}
