"""Where chunks of work run: ``inline`` (this process), ``pool`` (local processes that
survive a dying worker) and ``dask`` (a Dask cluster). Each runs ``fn(item, args)`` for
submitted items and hands results back as they finish; none knows what the work is."""
