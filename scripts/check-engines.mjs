// Every package the lock file installs must run on the Node versions the README promises (package.json engines):
// npm only warns (EBADENGINE) and installs it anyway, and the code then breaks on the oldest Node we support.
import { readFileSync } from "node:fs";
import semver from "semver";

const root = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8"));
const promise = root.engines.node;
const oldest = semver.minVersion(promise);

const offenders = Object.entries(lock.packages)
  .filter(([path, pkg]) => path && pkg.engines?.node && !semver.satisfies(oldest, pkg.engines.node))
  .map(([path, pkg]) => `${path.replace(/^.*node_modules\//, "")}@${pkg.version} needs node ${pkg.engines.node}`);

if (offenders.length > 0) {
  console.error(`Packages that do not support node ${promise} (the project's engines):\n  ${offenders.join("\n  ")}`);
  console.error("Pin a version that does (package.json overrides), or raise the engines and the README's promise.");
  process.exit(1);
}
console.log(`Every locked package supports node ${promise}.`);
