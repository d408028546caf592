// Prisma's schema engine compiled to WebAssembly, driven through the pg driver adapter. This is
// the engine `prisma migrate` uses, without the native binary the CLI would download at first
// use (which servers without internet access, and our CI, cannot fetch).
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import { createMigrationAdapter } from "./migration-adapter.ts";

type SchemaEngine = engineBindings.SchemaEngine;
export type { SchemaEngine };

// @types/node declares WebAssembly only as a namespace of types; this is the part we call.
interface WasmApi {
  instantiate(
    bytes: Uint8Array,
    imports: object,
  ): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const wasmApi = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let wasmReady: Promise<void> | undefined;

function loadWasm(): Promise<void> {
  wasmReady ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmPath = require
      .resolve("@prisma/schema-engine-wasm/schema_engine_bg")
      .replace(/\.js$/, ".wasm");
    const { instance } = await wasmApi.instantiate(await readFile(wasmPath), {
      "./schema_engine_bg.js": engineBindings,
    });
    const exports = instance.exports as { __wbindgen_start: () => void };
    (engineBindings as unknown as { __wbg_set_wasm: (e: unknown) => void }).__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return wasmReady;
}

export interface EngineHandle {
  engine: SchemaEngine;
  close(): Promise<void>;
}

/** Opens a schema engine on `databaseUrl` with the given schema files loaded. */
export async function openSchemaEngine(
  databaseUrl: string,
  schemaFiles: Array<{ path: string; content: string }>,
): Promise<EngineHandle> {
  await loadWasm();
  const factory = createMigrationAdapter(databaseUrl);
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  const log = (_message: string) => undefined;
  const engine = await engineBindings.SchemaEngine.new(
    { datamodels: schemaFiles.map((f) => [f.path, f.content] as [string, string]) },
    log,
    adapter,
  );
  return {
    engine,
    async close() {
      engine.free();
      await factory.closeAll();
    },
  };
}
