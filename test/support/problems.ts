/**
 * The problem types the platform interface answers in the public platform's names (the demo apps'
 * dialect): `problemType('invalid-request')` is `https://api.twitter.com/2/problems/invalid-request`.
 */
export const PROBLEMS = 'https://api.twitter.com/2/problems';

export const problemType = (name: string): string => `${PROBLEMS}/${name}`;
