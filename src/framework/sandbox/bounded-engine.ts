/**
 * One QuickJS WebAssembly module whose memory cannot grow past a limit, for the sandbox workers (the build's and
 * server functions'). This file is loaded by worker entries (Node strips its types): erasable TypeScript only.
 */
import releaseSyncModule from "@jitl/quickjs-wasmfile-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";

const WASM_PAGE = 65536;
/** Memory the engine itself starts with (Emscripten's initial heap); guest code gets the limit on top. */
const ENGINE_MEMORY_BYTES = 16 * 1024 * 1024;

// The package's types describe its CommonJS build; imported as ESM, the default export is the variant.
const releaseSync = ((releaseSyncModule as unknown as { default?: QuickJSSyncVariant }).default ??
  releaseSyncModule) as unknown as QuickJSSyncVariant;

/** A loaded engine and whether its memory refused to grow since the last `reset()`. */
export interface BoundedEngine {
  quickjs: QuickJSWASMModule;
  /** True once a growth was refused: the guest ran out of memory, even when QuickJS's own exception got lost. */
  exhausted(): boolean;
  reset(): void;
}

/** Loads QuickJS on a WebAssembly memory of the engine's own size plus `memoryLimitBytes`, never more. */
export async function boundedQuickJS(memoryLimitBytes: number): Promise<BoundedEngine> {
  const memory = new WebAssembly.Memory({
    initial: ENGINE_MEMORY_BYTES / WASM_PAGE,
    maximum: Math.ceil((ENGINE_MEMORY_BYTES + memoryLimitBytes) / WASM_PAGE),
  });
  // Emscripten grows the heap through this object; a refused growth means the guest ran out of memory.
  let exhausted = false;
  const grow = memory.grow.bind(memory);
  memory.grow = (delta: number): number => {
    try {
      return grow(delta);
    } catch (error) {
      exhausted = true;
      throw error;
    }
  };
  const quickjs = await newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmMemory: memory }));
  return {
    quickjs,
    exhausted: () => exhausted,
    reset: () => {
      exhausted = false;
    },
  };
}
