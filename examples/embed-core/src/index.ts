export * from './embed.js';
export * from './sandbox-channel.js';
export { formatDemo } from './format.js';
