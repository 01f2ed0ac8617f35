import http from 'node:http';
import { TwitterApi } from 'twitter-api-v2';

const PLAZA = process.env.PLAZA_URL ?? 'http://127.0.0.1:8080';
// twitter-api-v2 has no base-URL setting: this plugin sends what it addresses to api.x.com and
// upload.x.com to Plaza (keeping the multipart body it uses for upload.x.com's media upload).
const toPlaza = ({ params }) => {
  const url = new URL(params.url);
  if (url.hostname === 'upload.x.com' && url.pathname === '/1.1/media/upload.json') params.forceBodyMode ??= 'form-data';
  params.url = PLAZA + url.pathname + url.search;
};
const client = new TwitterApi(process.env.BEARER_TOKEN, {
  httpAgent: new http.Agent(), // Plaza speaks plain HTTP on localhost
  plugins: [{ onBeforeRequestConfig: toPlaza, onBeforeStreamRequestConfig: toPlaza }],
});

const { data } = await client.v2.singleTweet(process.env.TWEET_ID, { 'tweet.fields': ['created_at'] });
console.log(data.id, data.created_at);
