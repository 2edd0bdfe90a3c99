import { type ChildProcess, spawn } from "node:child_process";

/** A long-running process started by a test (a server), in its own process group. */
export interface Started {
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Ends the whole process group (a shell, npm and the server it started) and waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Starts `command` with `args` in its own process group and resolves once its output matches `ready`; rejects
 * when it exits first or `timeoutMs` passes, with its output in the error.
 */
export function startUntil(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; ready: RegExp; timeoutMs?: number },
): Promise<Started> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true });
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const started: Started = {
    child,
    output: () => output,
    async stop() {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // The whole group has exited already.
      }
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void started.stop();
      reject(new Error(`${command} ${args.join(" ")} was not ready in time:\n${output}`));
    }, options.timeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (options.ready.test(output)) {
        clearTimeout(timer);
        resolve(started);
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`${command} ${args.join(" ")} exited (${code ?? signal}) before it was ready:\n${output}`),
      );
    });
  });
}
