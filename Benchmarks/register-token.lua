-- wrk script: each request registers a new FCM token for a random one of the seeded sessions.
-- usage: wrk -t2 -c64 -d20s -s register-token.lua URL -- sessions.txt
local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  sessions = {}
  for line in io.lines(args[1]) do sessions[#sessions + 1] = line end
  math.randomseed(os.time() * 100 + tid)
  counter = 0
end

function request()
  counter = counter + 1
  local session = sessions[math.random(#sessions)]
  local body = string.format(
    '{"pushToken":"bench:APA91b-%d-%d-%d-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx","platform":"fcm_android","providerId":"fcm-1"}',
    tid, counter, math.random(1000000000))
  return wrk.format("POST", "/v1/me/push-tokens",
    { ["Authorization"] = "Bearer " .. session, ["Content-Type"] = "application/json" }, body)
end
