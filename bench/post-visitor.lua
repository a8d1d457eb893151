-- wrk script: POST a valid quiz result as browsers would: each request with a User-Agent of
-- its own, so each is a visitor of its own (counted, not a bot, and never over one visitor's
-- daily limit, which one repeated user agent would reach after 300 events).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"archetype":"Girl Next Door","answers":["A","A","A","A","A","A","A","A","A","A","A","A","A","A","A"]}'

local n = 0
request = function()
  n = n + 1
  wrk.headers["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 v" .. n
  return wrk.format()
end
