// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title The part of the delegate.xyz v2 registry the login service reads, for tests: all-wallet, contract and
/// ERC-721 delegations, with the published events, write functions, checks and getIncomingDelegations. Deployed, then
/// its code is set at the registry's canonical address (0x00000000000000447e69651d841bD8D104Bed493); that copy starts
/// with empty storage. Written from the published interface; ERC-20 and ERC-1155 amounts and multicall are left out.
contract TestDelegateRegistry {
    /// @notice Delegation type, NONE is used when a delegation does not exist or is revoked (published order).
    enum DelegationType {
        NONE,
        ALL,
        CONTRACT,
        ERC721,
        ERC20,
        ERC1155
    }

    /// @notice Struct for returning delegations (published layout).
    struct Delegation {
        DelegationType type_;
        address to;
        address from;
        bytes32 rights;
        address contract_;
        uint256 tokenId;
        uint256 amount;
    }

    /// @notice Emitted when an address delegates or revokes rights for their entire wallet
    event DelegateAll(address indexed from, address indexed to, bytes32 rights, bool enable);

    /// @notice Emitted when an address delegates or revokes rights for a contract address
    event DelegateContract(address indexed from, address indexed to, address indexed contract_, bytes32 rights, bool enable);

    /// @notice Emitted when an address delegates or revokes rights for an ERC721 tokenId
    event DelegateERC721(address indexed from, address indexed to, address indexed contract_, uint256 tokenId, bytes32 rights, bool enable);

    /// Every delegation ever enabled, by its hash; `type_` NONE once revoked.
    mapping(bytes32 => Delegation) private delegations;
    /// The hashes each delegate was ever given, in order (revoked ones are skipped when read).
    mapping(address => bytes32[]) private incoming;
    mapping(bytes32 => bool) private listed;

    /// @notice Allow the delegate to act on behalf of `msg.sender` for all contracts
    /// @param to The address to act as delegate
    /// @param rights Specific subdelegation rights granted to the delegate, zero for all rights
    /// @param enable Whether to enable or disable this delegation, true delegates and false revokes
    /// @return delegationHash The unique identifier of the delegation
    function delegateAll(address to, bytes32 rights, bool enable) external payable returns (bytes32 delegationHash) {
        delegationHash = keccak256(abi.encode(DelegationType.ALL, to, msg.sender, rights, address(0), uint256(0)));
        _set(delegationHash, Delegation(DelegationType.ALL, to, msg.sender, rights, address(0), 0, 0), enable);
        emit DelegateAll(msg.sender, to, rights, enable);
    }

    /// @notice Allow the delegate to act on behalf of `msg.sender` for a specific contract
    /// @param to The address to act as delegate
    /// @param contract_ The contract whose rights are being delegated
    /// @param rights Specific subdelegation rights granted to the delegate, zero for all rights
    /// @param enable Whether to enable or disable this delegation, true delegates and false revokes
    /// @return delegationHash The unique identifier of the delegation
    function delegateContract(address to, address contract_, bytes32 rights, bool enable) external payable returns (bytes32 delegationHash) {
        delegationHash = keccak256(abi.encode(DelegationType.CONTRACT, to, msg.sender, rights, contract_, uint256(0)));
        _set(delegationHash, Delegation(DelegationType.CONTRACT, to, msg.sender, rights, contract_, 0, 0), enable);
        emit DelegateContract(msg.sender, to, contract_, rights, enable);
    }

    /// @notice Allow the delegate to act on behalf of `msg.sender` for a specific ERC721 token
    /// @param to The address to act as delegate
    /// @param contract_ The contract whose rights are being delegated
    /// @param tokenId The token id to delegate
    /// @param rights Specific subdelegation rights granted to the delegate, zero for all rights
    /// @param enable Whether to enable or disable this delegation, true delegates and false revokes
    /// @return delegationHash The unique identifier of the delegation
    function delegateERC721(
        address to,
        address contract_,
        uint256 tokenId,
        bytes32 rights,
        bool enable
    ) external payable returns (bytes32 delegationHash) {
        delegationHash = keccak256(abi.encode(DelegationType.ERC721, to, msg.sender, rights, contract_, tokenId));
        _set(delegationHash, Delegation(DelegationType.ERC721, to, msg.sender, rights, contract_, tokenId, 0), enable);
        emit DelegateERC721(msg.sender, to, contract_, tokenId, rights, enable);
    }

    /// @notice Check if `to` is a delegate of `from` for the entire wallet
    /// @param to The potential delegate address
    /// @param from The potential address who delegated rights
    /// @param rights Specific rights to check for, zero to check full delegations only
    /// @return valid Whether delegate is granted to act on the from's behalf
    function checkDelegateForAll(address to, address from, bytes32 rights) external view returns (bool valid) {
        return _enabled(DelegationType.ALL, to, from, rights, address(0), 0);
    }

    /// @notice Check if `to` is a delegate of `from` for the specified `contract_` or the entire wallet
    /// @param to The delegated address to check
    /// @param from The cold wallet who issued the delegation
    /// @param contract_ The specific contract address being checked
    /// @param rights Specific rights to check for, zero to check full delegations only
    /// @return valid Whether delegate is granted to act on from's behalf for entire wallet or that specific contract
    function checkDelegateForContract(address to, address from, address contract_, bytes32 rights) public view returns (bool valid) {
        return _enabled(DelegationType.ALL, to, from, rights, address(0), 0) || _enabled(DelegationType.CONTRACT, to, from, rights, contract_, 0);
    }

    /// @notice Check if `to` is a delegate of `from` for the specific `contract_` and `tokenId`, the entire `contract_`, or the entire wallet
    /// @param to The delegated address to check
    /// @param from The wallet that issued the delegation
    /// @param contract_ The specific contract address being checked
    /// @param tokenId The token id for the token to delegating
    /// @param rights Specific rights to check for, zero to check full delegations only
    /// @return valid Whether delegate is granted to act on from's behalf for entire wallet, that contract, or that specific tokenId
    function checkDelegateForERC721(
        address to,
        address from,
        address contract_,
        uint256 tokenId,
        bytes32 rights
    ) external view returns (bool valid) {
        return checkDelegateForContract(to, from, contract_, rights) || _enabled(DelegationType.ERC721, to, from, rights, contract_, tokenId);
    }

    /// @notice Returns all enabled delegations a given delegate has received
    /// @param to The address to retrieve delegations for
    /// @return result Array of Delegation structs
    function getIncomingDelegations(address to) external view returns (Delegation[] memory result) {
        bytes32[] storage hashes = incoming[to];
        uint256 count;
        for (uint256 i; i < hashes.length; i++) if (delegations[hashes[i]].type_ != DelegationType.NONE) count++;
        result = new Delegation[](count);
        uint256 j;
        for (uint256 i; i < hashes.length; i++) {
            Delegation storage d = delegations[hashes[i]];
            if (d.type_ != DelegationType.NONE) result[j++] = d;
        }
    }

    /// A delegation with `rights`, or with full rights (zero), as the published checks count it.
    function _enabled(
        DelegationType type_,
        address to,
        address from,
        bytes32 rights,
        address contract_,
        uint256 tokenId
    ) private view returns (bool) {
        bytes32 full = keccak256(abi.encode(type_, to, from, bytes32(0), contract_, tokenId));
        if (delegations[full].type_ != DelegationType.NONE) return true;
        if (rights == bytes32(0)) return false;
        return delegations[keccak256(abi.encode(type_, to, from, rights, contract_, tokenId))].type_ != DelegationType.NONE;
    }

    function _set(bytes32 hash, Delegation memory delegation, bool enable) private {
        if (enable) delegations[hash] = delegation;
        else delete delegations[hash];
        if (enable && !listed[hash]) {
            listed[hash] = true;
            incoming[delegation.to].push(hash);
        }
    }
}
