"""Makes the throwaway APNs certificate fixtures used by the tests (not real credentials).

    python3 make-fixtures.py

apns-valid.p12    certificate valid until 2099, password "herald-test", legacy 3DES/SHA1 (as Keychain exports)
apns-modern.p12   the same key and certificate, AES-256/PBKDF2 encryption, password "herald-test"
apns-expired.p12  certificate that expired in 2020, password "herald-test"
"""
import datetime
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import BestAvailableEncryption, PrivateFormat, pkcs12
from cryptography.x509.oid import NameOID

PASSWORD = b"herald-test"


def certificate(key, not_before, not_after):
    name = x509.Name([
        x509.NameAttribute(NameOID.USER_ID, "com.acme.app"),
        x509.NameAttribute(NameOID.COMMON_NAME, "Apple Push Services: com.acme.app"),
        x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, "DEF123GHIJ"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Herald Test"),
        x509.NameAttribute(NameOID.COUNTRY_NAME, "US"),
    ])
    return (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(not_before).not_valid_after(not_after)
            .sign(key, hashes.SHA256()))


def legacy(password):
    return (PrivateFormat.PKCS12.encryption_builder().kdf_rounds(2048)
            .key_cert_algorithm(pkcs12.PBES.PBESv1SHA1And3KeyTripleDESCBC).hmac_hash(hashes.SHA1()).build(password))


key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
valid = certificate(key, datetime.datetime(2024, 1, 1), datetime.datetime(2099, 1, 1))
expired = certificate(key, datetime.datetime(2019, 1, 1), datetime.datetime(2020, 1, 1))
with open("apns-valid.p12", "wb") as f:
    f.write(pkcs12.serialize_key_and_certificates(b"apns", key, valid, None, legacy(PASSWORD)))
with open("apns-modern.p12", "wb") as f:
    f.write(pkcs12.serialize_key_and_certificates(b"apns", key, valid, None, BestAvailableEncryption(PASSWORD)))
with open("apns-expired.p12", "wb") as f:
    f.write(pkcs12.serialize_key_and_certificates(b"apns", key, expired, None, legacy(PASSWORD)))
