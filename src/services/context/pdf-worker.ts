// The PDF text worker: extracts the text of one untrusted PDF per thread, off the main thread (see pdf-text.ts).
import { parentPort, workerData } from "node:worker_threads";
import { extractText, getDocumentProxy } from "unpdf";

const { bytes, maxPages } = workerData as { bytes: Uint8Array; maxPages: number };
try {
  const pdf = await getDocumentProxy(bytes);
  if (pdf.numPages > maxPages) {
    parentPort?.postMessage({ tooManyPages: pdf.numPages });
  } else {
    const { text } = await extractText(pdf, { mergePages: false });
    parentPort?.postMessage({ pages: text });
  }
} catch (error) {
  parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
}
