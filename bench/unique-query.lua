-- wrk script: every request asks for the same page with a query string never seen before
-- (?x=<thread>-<counter>), as a visitor flooding the page cache would.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local counter = 0

request = function()
  counter = counter + 1
  return wrk.format(nil, wrk.path .. "?x=" .. tid .. "-" .. counter)
end
