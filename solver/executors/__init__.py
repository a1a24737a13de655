"""Where chunks of work run, each as a :class:`concurrent.futures.Executor`: ``inline`` (this
process, each call as it is submitted), ``pool`` (local processes that survive a dying
worker) and ``dask`` (a Dask cluster, through ``Client.get_executor()``). None knows what
the work is; :mod:`solver.batch.schedule` keeps a window of it in flight."""
