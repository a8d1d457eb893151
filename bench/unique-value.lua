-- wrk script: appends a value never seen before to the address as given, so every request
-- is new: `/?x=` (a query string no page reads), `/blog?category=` (a value the page reads)
-- or `/no-such-page-` (a path).
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
