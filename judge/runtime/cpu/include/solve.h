// The common template's header. The file defines solve() itself and the judge calls it with the
// problem's parameters (judge/source/signature.py), so there is nothing to declare here.
#pragma once
