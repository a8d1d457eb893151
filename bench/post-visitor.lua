-- wrk script: POST a valid quiz result as a browser would (a User-Agent, so it is counted as a
-- visitor and not as a bot with an empty user agent).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"
wrk.body = '{"archetype":"Girl Next Door","answers":["A","A","A","A","A","A","A","A","A","A","A","A","A","A","A"]}'
