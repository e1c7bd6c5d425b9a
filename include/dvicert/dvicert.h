/* SPDX-License-Identifier: LGPL-3.0-or-later */
/* Umbrella header. */
#ifndef DVICERT_DVICERT_H
#define DVICERT_DVICERT_H

#include "dvicert/error.h"
#include "dvicert/files.h"
#include "dvicert/ival.h"
#include "dvicert/ivec.h"
#include "dvicert/imat.h"
#include "dvicert/mclass.h"
#include "dvicert/beta.h"
#include "dvicert/lvi.h"
#include "dvicert/lcpall.h"
#include "dvicert/expr.h"
#include "dvicert/tabfun.h"
#include "dvicert/tfun.h"
#include "dvicert/dlvi.h"
#include "dvicert/tube.h"
#include "dvicert/lognorm.h"
#include "dvicert/problem.h"
#include "dvicert/cert.h"
#include "dvicert/traj.h"
#include "dvicert/certio.h"
#include "dvicert/hybrid.h"
#include "dvicert/hybrid_cert.h"
#include "dvicert/lcs.h"
#include "dvicert/lcs_cert.h"

#endif
