import { getIn, setIn, type ValidationErrors } from 'final-form';
import { ValidationError, type AnyObject, type ObjectSchema } from 'yup';

/**
 * Adapts a shared yup schema to react-final-form's `validate`: every failing field gets its
 * first message, so the form shows exactly the messages the server would send.
 */
export const validateWith =
  <T extends AnyObject>(schema: ObjectSchema<T>) =>
  async (values: object): Promise<ValidationErrors> => {
    try {
      await schema.validate(values, { abortEarly: false });
      return undefined;
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return error.inner.reduce<object>(
        (errors, inner) =>
          inner.path && getIn(errors, inner.path) === undefined ? setIn(errors, inner.path, inner.message) : errors,
        {},
      );
    }
  };
