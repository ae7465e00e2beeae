// Worker threads start without the TypeScript loader; register it, then run the real (TypeScript) entry.
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
await import(workerData.entry);
