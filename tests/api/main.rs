#![expect(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::case_sensitive_file_extension_comparisons,
    reason = "a test suite: a failed unwrap is a failed test"
)]
//! Integration suite: the real application on a random port, through real HTTP.
//! Runs on SQLite by default and on PostgreSQL when `TEST_DATABASE_URL=postgres://…` is set
//! (a fresh database per test). One binary, so it links once.

mod bodies;
mod contract;
mod database_down;
mod helpers;
mod layers;
mod limits;
mod nodes;
mod pdf;
mod smtp;
mod tsa;

mod acts;
mod assembly;
mod audit;
mod authorizations;
mod autos;
mod backup;
mod calendar;
mod charter;
mod documents;
mod electronic_notice;
mod errors;
mod filings;
mod first_filings;
mod follows;
mod icp;
mod legal_bases;
mod ltv;
mod metrics;
mod migrations;
mod officials;
mod oidc;
mod pages;
mod panel;
mod pdf_signatures;
mod platform_files;
mod platforms;
mod printable;
mod rectifications;
mod register_acts;
mod renewal;
mod reports;
mod road;
mod rules;
mod samples;
mod sanctions;
mod second_city;
mod services;
mod startup;
mod substitution;
mod tasks;
mod timestamps;
mod validator;
mod verification;
mod webhooks;
mod worklist;
