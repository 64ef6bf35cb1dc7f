"""Dispatch: database leases (lease.py, shared by every kind of worker) and the embedded dispatcher."""
