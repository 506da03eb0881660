import { runEmbedCoreDemo } from './embed.js';
import { formatDemo } from './format.js';

/** Runs the embedding demo once and prints the ticket it produced. */
const result = await runEmbedCoreDemo();
console.log(formatDemo(result));
