/** The tests of the page's model options (`draftModel`, `mmproj`, `lora`): the param a 400 names. */
import { InvalidRequestError } from '../../../../src/core/domain/errors';

/** The `param` of the 400 `run` throws, or null where it throws nothing. */
export const paramOf = (run: () => unknown): string | null => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError) return error.param;
    throw error;
  }
  return null;
};
