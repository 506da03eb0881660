/**
 * The URL of a real server for integration suites, or undefined to skip them. In CI (CI=true)
 * a missing variable is an error: the integration suites must run there, not skip.
 */
export function integrationUrl(name: 'TEST_DATABASE_URL' | 'TEST_REDIS_URL' | 'TEST_NATS_URL'): string | undefined {
  const value = process.env[name];
  if (!value && process.env.CI === 'true') throw new Error(`${name} must be set in CI: the integration suites may not skip there`);
  return value || undefined;
}
