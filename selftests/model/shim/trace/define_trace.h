/* SPDX-License-Identifier: GPL-2.0 */
/* Shim: nothing to define, the model's tracepoints are empty inlines. */
