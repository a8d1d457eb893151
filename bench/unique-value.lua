-- wrk script: appends a value never seen before to the address as given (a path ending in
-- `?category=` or `/no-such-page-`), so every request asks for a value the page reads.
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local counter = 0

request = function()
  counter = counter + 1
  return wrk.format(nil, wrk.path .. tid .. "-" .. counter)
end
