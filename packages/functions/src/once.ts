/**
 * A value built once per Lambda container and reused by every invocation, except that a failed
 * build is forgotten: a passing failure at a cold start (SSM throttled while reading the secrets)
 * must not spoil the container for good. A bad configuration simply fails again, naming itself.
 */
export function cachedOnSuccess<T>(build: () => Promise<T>): () => Promise<T> {
  let cached: Promise<T> | undefined;
  return () => {
    cached ??= build().catch((error: unknown) => {
      cached = undefined;
      throw error;
    });
    return cached;
  };
}
