-- The day a car substitution's request was protocolled (APP-ART8-P2).
-- NULL: recorded before it was (the request was judged on the day it was entered).
ALTER TABLE app_vehicle_substitutions ADD COLUMN protocolled_on DATE;
