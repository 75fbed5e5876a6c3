import { object, type InferType } from 'yup';
import { rawLine } from './fields';

/** `POST auth/access`: signs in as the person Cloudflare Access says this is (docs/api.md#cloudflare-access). */
export const accessLoginSchema = object({
  audience: rawLine(200).required('Audience is required'),
});

export type AccessLoginPayload = InferType<typeof accessLoginSchema>;

/** `GET auth/access`: who Cloudflare Access says is asking; the call answers 204 when nobody. */
export interface AccessIdentity {
  email: string;
}
