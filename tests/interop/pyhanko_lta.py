"""Long-term validation (PAdES B-LTA, ETSI EN 319 102-1 5.6.3) of selo PDFs with pyHanko, its
clock moved a year past the signer's certificate's expiry.

usage: python pyhanko_lta.py [--expect-failure] --tsa-root PEM ROOT_PEM LEAF_PEM PDF [PDF ...]
ROOT_PEM is the signer's trust anchor, the --tsa-root PEM the time-stamping authority's;
LEAF_PEM the signer's certificate, whose notAfter plus 365 days is the validation time. Only
what the files hold is used (their DSS, the signatures' certificates): nothing is fetched and
the revocation lists must be there. Prints pyHanko's AdES indication for each file. Exits 0 when
every file's signature PASSED (or, with --expect-failure, when none did).
"""

import asyncio
import sys
from datetime import timedelta

from asn1crypto import pem, x509
from pyhanko.pdf_utils.reader import PdfFileReader
from pyhanko.sign.ades.report import AdESStatus
from pyhanko.sign.validation.ades import ades_lta_validation
from pyhanko.sign.validation.policy_decl import (
    PdfSignatureValidationSpec,
    RevinfoOnlineFetchingRule,
    RevocationInfoGatheringSpec,
    SignatureValidationSpec,
)
from pyhanko_certvalidator.context import CertValidationPolicySpec
from pyhanko_certvalidator.ltv.types import ValidationTimingInfo
from pyhanko_certvalidator.policy_decl import (
    REQUIRE_REVINFO,
    CertRevTrustPolicy,
    RevocationCheckingPolicy,
    RevocationCheckingRule,
)
from pyhanko_certvalidator.registry import SimpleTrustManager


def load_cert(path):
    data = open(path, "rb").read()
    if pem.detect(data):
        _, _, data = pem.unarmor(data)
    return x509.Certificate.load(data)


def spec(root, tsa_root):
    trust = SimpleTrustManager.build(trust_roots=[root, tsa_root])
    # The signer's chain must have revocation data (its certificates name CRLs, which the DSS
    # holds); the authority's certificate names none, so none is asked of it.
    policy = CertValidationPolicySpec(
        trust_manager=trust, revinfo_policy=CertRevTrustPolicy(REQUIRE_REVINFO)
    )
    if_declared = RevocationCheckingPolicy(
        RevocationCheckingRule.CHECK_IF_DECLARED, RevocationCheckingRule.CHECK_IF_DECLARED
    )
    ts_policy = CertValidationPolicySpec(
        trust_manager=trust, revinfo_policy=CertRevTrustPolicy(if_declared)
    )
    return PdfSignatureValidationSpec(
        SignatureValidationSpec(
            cert_validation_policy=policy,
            ts_cert_validation_policy=ts_policy,
            revinfo_gathering_policy=RevocationInfoGatheringSpec(
                online_fetching_rule=RevinfoOnlineFetchingRule.LOCAL_ONLY
            ),
        )
    )


async def validate(path, pdf_spec, timing):
    with open(path, "rb") as f:
        reader = PdfFileReader(f, strict=False)
        # The document's own signature; document timestamps follow it.
        sig = next(s for s in reader.embedded_signatures if s.sig_object_type == "/Sig")
        stamps = sum(1 for s in reader.embedded_signatures if s.sig_object_type == "/DocTimeStamp")
        result = await ades_lta_validation(sig, pdf_spec, timing_info=timing)
        passed = result.ades_subindic.status == AdESStatus.PASSED
        oldest = result.oldest_evidence_record_timestamp
        return (
            f"{result.ades_subindic} document_timestamps={stamps} "
            f"oldest_archive={oldest.isoformat() if oldest else None}"
            + (f" ({result.failure_msg})" if result.failure_msg else ""),
            passed,
        )


def main():
    args = sys.argv[1:]
    expect_failure = args[0] == "--expect-failure"
    if expect_failure:
        args = args[1:]
    assert args[0] == "--tsa-root", __doc__
    tsa_root, root, leaf = (load_cert(p) for p in (args[1], args[2], args[3]))
    at = leaf["tbs_certificate"]["validity"]["not_after"].native + timedelta(days=365)
    timing = ValidationTimingInfo(validation_time=at, best_signature_time=at, point_in_time_validation=False)
    print(f"validation time: {at.isoformat()} (the signer's certificate expired {leaf['tbs_certificate']['validity']['not_after'].native.isoformat()})")
    pdf_spec = spec(root, tsa_root)
    failures = 0
    for path in args[4:]:
        try:
            s, ok = asyncio.run(validate(path, pdf_spec, timing))
        except Exception as e:  # a file pyHanko cannot read is not a valid signature
            s, ok = f"ERROR {type(e).__name__}: {e}", False
        print(f"{path}: {s}")
        if ok == expect_failure:
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
