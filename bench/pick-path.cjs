// autocannon's setupRequest for bench/run.ts, loaded in its worker thread (a function cannot be
// passed to a worker, a file can): each request takes the next of the scenario's varied paths,
// starting at a random one, with that path's Authorization header when paths have their own.
const fs = require('node:fs');

const { paths, authorizationByPath } = JSON.parse(fs.readFileSync(process.env.PLAZA_BENCH_REQUESTS, 'utf8'));
let next = Math.floor(Math.random() * paths.length);

module.exports = function setupRequest(request) {
  const path = paths[next++ % paths.length];
  request.path = path;
  const authorization = authorizationByPath && authorizationByPath[path];
  if (authorization) request.headers = { ...request.headers, authorization };
  return request;
};
