// For tests of a request that must fail: what it was rejected with, so the
// test can assert on the typed error; a request that succeeds fails the test.

/** The error `promise` rejects with; throws when it fulfils instead. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the request to fail');
}
