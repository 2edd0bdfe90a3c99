import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping";
import { draftPath, FILE_NAMESPACE } from "./diagnostics.ts";

/** A position in a draft file (1-based line and column). */
export interface SourcePosition {
  file: string;
  line: number;
  column: number;
}

const FRAME = /\((?:bundle\.js):(\d+):(\d+)\)\s*$|at (?:bundle\.js):(\d+):(\d+)\s*$/;

/** Maps positions of the render bundle back to the draft files they came from. */
export class BundleMap {
  private readonly map: TraceMap | undefined;

  constructor(sourceMap: string) {
    try {
      this.map = new TraceMap(sourceMap);
    } catch {
      this.map = undefined;
    }
  }

  /** The draft position of a bundle position (1-based line and column), if it came from a draft file. */
  position(line: number, column: number): SourcePosition | undefined {
    if (!this.map) return undefined;
    const original = originalPositionFor(this.map, { line, column: Math.max(0, column - 1) });
    if (!original.source || original.line === null) return undefined;
    const source = original.source.replace(/^(\.\.\/)+/, "");
    if (!source.startsWith(`${FILE_NAMESPACE}:`)) return undefined;
    return { file: draftPath(source), line: original.line, column: (original.column ?? 0) + 1 };
  }

  /**
   * The first frame of a QuickJS stack (`    at fn (bundle.js:12:5)`) that lies in a draft file:
   * where website code threw, or called what threw (frames in preact or `Function` code are skipped).
   */
  locate(stack: string): SourcePosition | undefined {
    for (const line of stack.split("\n")) {
      const match = FRAME.exec(line);
      if (!match) continue;
      const position = this.position(Number(match[1] ?? match[3]), Number(match[2] ?? match[4]));
      if (position) return position;
    }
    return undefined;
  }
}
