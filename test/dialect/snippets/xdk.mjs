import { Client } from '@xdevplatform/xdk';

const client = new Client({ baseUrl: process.env.PLAZA_URL ?? 'http://127.0.0.1:8080', bearerToken: process.env.BEARER_TOKEN });

const { data } = await client.posts.getById(process.env.TWEET_ID, { postFields: ['created_at'] });
console.log(data.id, data.createdAt);
