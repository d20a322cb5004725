//! Apache JMeter's result files: CSV and XML results (JTL, https://jmeter.apache.org/usermanual/listeners.html),
//! the dashboard's `statistics.json` (https://jmeter.apache.org/usermanual/generating-dashboard.html)
//! and Aggregate/Summary Report tables saved as CSV
//! (https://jmeter.apache.org/usermanual/component_reference.html#Aggregate_Report).

pub mod csv;
pub mod stats;
pub mod summary;
pub mod xml;
