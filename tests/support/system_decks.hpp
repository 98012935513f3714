// Test support: deck texts of the system tests (tests/system), written once.
#pragma once

#include <string>

namespace cabledyn::test_support {

/// A MoorDyn deck of the float of float_body (system_builders.hpp: 2e5 kg, 250 m^3, its
/// reference point 20 m down, yawed 30 degrees) moored by three 158 m wires (EA 5e8, 80 kg/m,
/// 12 segments) to anchors 150 m down, with the rows `options` in OPTIONS, the body's CdA
/// field `cda` and the first anchor's row after its type `a1` (X Y Z Mass Vol CdA Ca, or more
/// rows after it). Outputs: Body1Px, Body1Rz, Body1Fz.
inline std::string moored_float_deck(const std::string& options = "", const std::string& cda = "0",
                                     const std::string& a1 = "100 0 -150 0 0 0 0") {
  std::string text = R"(--------------------- MoorDyn Input File ------------------------------------
A submerged buoyant body moored by three lines (tests/support/system_decks.hpp)
--------------------- LINE TYPES ---------------------------------------
TypeName   Diam     Mass/m     EA          BA/-zeta   EI       Cd    Ca    CdAx  CaAx
(-)        (m)      (kg/m)     (N)         (N-s/-)    (N-m^2)  (-)   (-)   (-)   (-)
wire       0.1      80         5e8         0          0.0      1.2   1.0   0.2   0.0
---------------------------- BODIES -----------------------------------------------------
ID   Attachment  X0     Y0    Z0     r0      p0     y0     Mass  CG*      I*               Volume   CdA*   Ca
(#)     (-)      (m)    (m)   (m)   (deg)   (deg)  (deg)   (kg)  (m)      (kg-m^2)         (m^3)    (m^2)  (-)
1       Free      0      0    -20    0       0      30      2e5   0.3|0|-5 2e6|2.2e6|8e5    250      %CDA%  0.8
--------------------- POINTS -------------------------------------------
ID    Type      X          Y          Z         Mass    Vol     CdA    Ca
(-)   (-)       (m)        (m)        (m)       (kg)    (m^3)   (m^2)  (-)
1     Body1     3          0          -2        0       0       0      0
2     Body1     -1.5       2.598      -2        0       0       0      0
3     Body1     -1.5       -2.598     -2        0       0       0      0
4     Fixed     %A1%
5     Fixed     -50        86.6       -150      0       0       0      0
6     Fixed     -50        -86.6      -150      0       0       0      0
--------------------- LINES --------------------------------------------
ID   LineType   AttachA  AttachB  UnstrLen  NumSegs  LineOutputs
(-)  (-)        (-)      (-)      (m)       (-)      (-)
1    wire       1        4        158       12       -
2    wire       2        5        158       12       -
3    wire       3        6        158       12       -
--------------------- OPTIONS ------------------------------------------
%EXTRA%
--------------------- OUTPUTS ------------------------------------------
Body1Px
Body1Rz
Body1Fz
--------------------- need this line ------------------------------------
)";
  text.replace(text.find("%EXTRA%"), 7, options);
  text.replace(text.find("%CDA%"), 5, cda);
  text.replace(text.find("%A1%"), 4, a1);
  return text;
}

}  // namespace cabledyn::test_support
