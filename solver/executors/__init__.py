"""Where work runs, each as a :class:`concurrent.futures.Executor`: ``inline`` (this
process, each call as it is submitted), ``pool`` (the project's one process pool: warm
processes on a unix socket, each job under an optional deadline; the HTTP service's compute
pool and the local workers of every other run of work in processes, set up by
``pool.local_executor``) and ``dask`` (a Dask cluster, through ``Client.get_executor()``).
None knows what the work is; :mod:`solver.batch.schedule` keeps a window of it in flight."""
