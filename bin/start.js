// `npm start`: the service. It runs the JavaScript that `npm install` compiled into dist/ while that is current
// (bin/compiled.js), and otherwise the TypeScript sources through tsx's loader, as `bin/pagegrade.js` does: a
// checkout works right after `npm install` and after any edit. Compiled, the service starts without tsx's loader
// and its module-hook thread (about 70 MB less resident memory, and no compilation at start-up). The memory
// settings come from the start script in package.json (package.json).
import { importCompiledOrSource } from "./compiled.js";

await importCompiledOrSource("main");
