//! The stored shapes and the reads of them: DynamoDB items ([`items`]), the
//! entries table's reads and the snapshot cache ([`store`]), and presigned
//! audio URLs ([`presign`]).

pub mod items;
pub mod presign;
pub mod store;
