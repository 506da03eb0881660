// The application and its ports are derived from the core's module map.
export { createApplication, type Application, type CorePorts } from './compose/index.js';
