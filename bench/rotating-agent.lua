-- wrk script: a browser's navigation (Sec-Fetch-Dest: document) with a User-Agent never sent
-- before on every request, so each request is a new visitor to hash-based counting. With
-- FLOOD_ADDRESSES set, each request also names a new client address in X-Forwarded-For (for a
-- server that trusts 127.0.0.1 as its proxy); with FLOOD_REFERRERS, a new referrer site and
-- utm_source on every request.
local forwarded = os.getenv("FLOOD_ADDRESSES") ~= nil
local referrers = os.getenv("FLOOD_REFERRERS") ~= nil
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local n = 0

request = function()
  n = n + 1
  local headers = {
    ["User-Agent"] = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 flood-" .. tid .. "-" .. n,
    ["Sec-Fetch-Dest"] = "document",
  }
  local path = wrk.path
  if forwarded then
    headers["X-Forwarded-For"] = "198.18." .. (tid * 64 + math.floor(n / 256) % 64) .. "." .. (n % 256)
  end
  if referrers then
    headers["Referer"] = "https://site-" .. tid .. "-" .. n .. ".example.com/"
    path = path .. (string.find(path, "?", 1, true) and "&" or "?") .. "utm_source=s" .. tid .. "-" .. n
  end
  return wrk.format("GET", path, headers)
end
