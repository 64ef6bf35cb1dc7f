"""The cudajudge server: FastAPI app, SQLAlchemy models, auth, API and the embedded dispatcher.

The server never imports CUDA and never runs user code in its own process: judging happens in
worker threads that call `judge.submission.judge_source`, which runs the submission in a child.
"""
