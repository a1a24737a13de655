"""Bit intrinsics for the kernels: ``popcount`` and ``pext`` (parallel bit extract).

``pext(x, mask)`` packs the bits of ``x`` that ``mask`` selects into the low bits, in order. It
is one instruction on x86-64 CPUs with BMI2 (Intel since Haswell, 2013; fast on AMD from Zen
3); where numba's target lacks it, or runs it as slow microcode (AMD before Zen 3), ``pext`` is
a plain loop and ``FAST_PEXT`` is False, so callers can take another method. The choice
follows the CPU numba compiles for (``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` included),
which is also part of the on-disk cache key, so a cached kernel never runs with the other
choice.
"""

from __future__ import annotations

import platform

import llvmlite.binding as ll
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils, config
from numba.core.extending import intrinsic

from solver._jit import njit

# AMD cores that microcode pext (tens of cycles or more per call)
_SLOW_PEXT_CPUS = ("znver1", "znver2", "bdver", "btver")


def _target_cpu() -> tuple[str, set[str]]:
    """Name and enabled features of the CPU numba compiles for."""
    name = config.CPU_NAME or ll.get_host_cpu_name()
    if config.CPU_FEATURES is not None:
        features = config.CPU_FEATURES
    else:
        try:
            features = ll.get_host_cpu_features().flatten()
        except RuntimeError:
            features = ""
    return name, {f[1:] for f in features.split(",") if f.startswith("+")}


def _fast_pext() -> bool:
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False
    name, features = _target_cpu()
    return "bmi2" in features and not name.startswith(_SLOW_PEXT_CPUS)


FAST_PEXT = _fast_pext()


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an integer (``llvm.ctpop``: one instruction where the CPU has it)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [args[0].type])
        return builder.call(fn, [args[0]])

    return x(x), codegen


@intrinsic
def _pext_bmi2(typingctx, x, mask):
    """The BMI2 instruction; only compiled when ``FAST_PEXT``."""
    if not (x == types.uint64 and mask == types.uint64):
        return None

    def codegen(context, builder, sig, args):
        i64 = ir.IntType(64)
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [i64, i64]),
                                            "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@njit
def pext_loop(x, mask):
    """``pext`` one selected bit at a time: for CPUs without a fast instruction."""
    out = np.uint64(0)
    bit = np.uint64(1)
    m = np.uint64(mask)
    x = np.uint64(x)
    while m:
        low = m & (~m + np.uint64(1))
        if x & low:
            out |= bit
        bit <<= np.uint64(1)
        m &= m - np.uint64(1)
    return out


# kernels call ``pext(x, mask)`` with two uint64 values
pext = _pext_bmi2 if FAST_PEXT else pext_loop
