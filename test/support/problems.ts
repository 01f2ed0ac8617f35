/**
 * The problem types the platform interface answers in the public platform's names (the demo apps'
 * dialect): `problemType('invalid-request')` is `https://api.twitter.com/2/problems/invalid-request`.
 */
export const PROBLEMS = 'https://api.twitter.com/2/problems';

export const problemType = (name: string): string => `${PROBLEMS}/${name}`;

/**
 * The whole client-forbidden problem of an operation a self-serve app may not use (after
 * `normalise` with the self-serve app's id known as 'selfServe'), with its `detail`.
 */
export const clientNotEnrolled = (detail: string) => ({
  title: 'Client Forbidden',
  detail,
  reason: 'client-not-enrolled',
  registration_url: 'https://developer.twitter.com/en/portal/product',
  type: problemType('client-forbidden'),
  client_id: '<selfServe>',
  required_enrollment: 'Appropriate Level of API Access',
  status: 403,
});
