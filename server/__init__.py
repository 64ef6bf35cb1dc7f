"""The cudajudge server: FastAPI app, SQLAlchemy models, auth, API, the embedded dispatcher and the
scale-out worker (`cudajudge worker`, fed by a job queue).

The server never imports CUDA and never runs user code in its own process: judging happens in
worker threads or worker processes that call `judge.submission.judge_source`, which runs the
submission in a child.
"""
