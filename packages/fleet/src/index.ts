// @yoake/fleet: Yoake past one machine (sessions and blobs in PostgreSQL, runs on a queue).
export {};
