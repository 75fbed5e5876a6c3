/**
 * The small part of mail in that the Worker's entry needs at once (docs/architecture.md#mail): the log
 * line every received mail writes, and refusing one. The handler itself loads on demand.
 */

export const mailLog = (outcome: string, message: Pick<ForwardableEmailMessage, 'from' | 'to'>, detail: string) =>
  // eslint-disable-next-line no-console -- the mail log line, one per received mail, as the request log writes one per request; Workers Logs keeps it.
  console.log(JSON.stringify({ mail: outcome, from: message.from, to: message.to, detail }));

/**
 * Refuses the mail with a reason its sender's server passes back. Deployed, setReject is plain;
 * Miniflare hands it over RPC, where the call settles later, so it is awaited before the handler ends.
 */
export const refuseMail = async (message: ForwardableEmailMessage, reason: string) => {
  mailLog('rejected', message, reason);
  await Promise.resolve(message.setReject(reason));
};
