-- wrk script: POST a valid quiz result (all A answers score as Girl Next Door).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"archetype":"Girl Next Door","answers":["A","A","A","A","A","A","A","A","A","A","A","A","A","A","A"]}'
