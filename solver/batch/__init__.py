"""Many hands solved in chunks: ``many`` (``arrange_many`` and the per-chunk tasks),
``schedule`` (the one windowed scheduler over a ``concurrent.futures`` executor from
:mod:`solver.executors`), ``run`` (``capsa batch``: parsing lines, the durable run and its
summary), ``lines`` (reading a line from outside: no line can stop a run) and ``output``
(which lines are done; appending whole chunks with fsync; a write that fails).
"""

from solver.batch.many import (
    DEFAULT_CHUNK,
    arrange_many,
    arrange_many_columns,
    best_many,
    best_many_columns,
)
from solver.batch.output import Appender, LineSet, OutputError, scan_lines
from solver.batch.run import (
    BatchConfig,
    ChunkOutput,
    Summary,
    check_config,
    parse_line,
    run_batch,
    solve_lines,
)
from solver.batch.schedule import windowed

__all__ = ["DEFAULT_CHUNK", "Appender", "BatchConfig", "ChunkOutput", "LineSet", "OutputError",
           "Summary", "arrange_many", "arrange_many_columns", "best_many", "best_many_columns",
           "check_config", "parse_line", "run_batch", "scan_lines", "solve_lines", "windowed"]
